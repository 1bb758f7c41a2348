raise E('{}')
