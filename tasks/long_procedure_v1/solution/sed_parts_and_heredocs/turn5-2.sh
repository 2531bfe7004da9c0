cat > output/step3_top8.csv <<'EOF'
id,carrier,origin,weight_kg,cost,status
S005,Alder,Antwerp,395,985,delivered
S026,Cedar,Antwerp,1764,974,delivered
S010,Alder,Hamburg,640,939,delivered
S031,Cedar,Hamburg,309,928,delivered
S015,Alder,Gdansk,885,893,delivered
S025,Alder,Bilbao,1375,801,delivered
S009,Dogwood,Genoa,251,766,delivered
S030,Alder,Genoa,1620,755,delivered
EOF