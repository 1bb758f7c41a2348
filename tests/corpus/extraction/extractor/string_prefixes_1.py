raise E('single')
