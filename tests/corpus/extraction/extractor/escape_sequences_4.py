raise E('u \u00e9 U \U0001F600')
