cat > /tmp/loose.d.ts <<'EOF'
export type Loose = any;
EOF