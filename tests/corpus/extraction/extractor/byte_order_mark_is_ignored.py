raise E('after BOM')
