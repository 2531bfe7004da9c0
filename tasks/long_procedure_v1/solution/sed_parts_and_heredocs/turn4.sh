mkdir -p output && cat > output/step1_delivered.csv <<'EOF'
id,carrier,origin,weight_kg,cost,status
S001,Cedar,Gdansk,539,293,delivered
S002,Elm,Genoa,928,466,delivered
S003,Birch,Hamburg,1317,639,delivered
S005,Alder,Antwerp,395,985,delivered
S006,Cedar,Le Havre,784,247,delivered
S009,Dogwood,Genoa,251,766,delivered
S010,Alder,Hamburg,640,939,delivered
S011,Cedar,Bilbao,1029,201,delivered
S013,Birch,Le Havre,1807,547,delivered
S015,Alder,Gdansk,885,893,delivered
S017,Elm,Hamburg,1663,328,delivered
S018,Birch,Bilbao,352,501,delivered
S019,Dogwood,Antwerp,741,674,delivered
S022,Elm,Gdansk,208,282,delivered
S023,Birch,Genoa,597,455,delivered
S025,Alder,Bilbao,1375,801,delivered
S026,Cedar,Antwerp,1764,974,delivered
S027,Elm,Le Havre,453,236,delivered
S029,Dogwood,Gdansk,1231,582,delivered
S030,Alder,Genoa,1620,755,delivered
S031,Cedar,Hamburg,309,928,delivered
S033,Birch,Antwerp,1087,363,delivered
S034,Dogwood,Le Havre,1476,536,delivered
S037,Elm,Genoa,943,144,delivered
S038,Birch,Hamburg,1332,317,delivered
S039,Dogwood,Bilbao,1721,490,delivered
EOF