cat > output/step6_totals.txt <<'EOF'
DELIVERED=26
TOP8_COST=7041
TOP_CARRIER=Alder
EOF