raise E('x' if c else 'y')
