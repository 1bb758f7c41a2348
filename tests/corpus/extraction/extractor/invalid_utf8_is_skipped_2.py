raise E('x')
# â‚