raise E('first \
second')
