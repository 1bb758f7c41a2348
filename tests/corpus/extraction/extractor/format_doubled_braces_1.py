raise E('{{literal}} {}'.format(a))
