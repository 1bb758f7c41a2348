raise E('bad ' + str(x))
