cat > output/step5_carriers.csv <<'EOF'
carrier,shipments,total_cost
Alder,5,4373
Birch,6,2822
Cedar,5,2643
Dogwood,5,3048
Elm,5,1456
EOF