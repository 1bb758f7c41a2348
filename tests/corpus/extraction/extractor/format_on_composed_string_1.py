raise E(('{} ' 'x').format(a))
