raise E('quote \' \" backslash \\')
