cat > deploy/release.env <<'EOF'
RELEASE_CHANNEL=stable-eu
SIGNING_KEY_ID=kx7-orchid-2291
ARTIFACT_BUCKET=s3://ledgerd-releases-eu-central-1
MIGRATION_MODE=expand-only
EOF