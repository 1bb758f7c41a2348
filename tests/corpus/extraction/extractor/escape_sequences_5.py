raise E('octal \101\102 \0')
