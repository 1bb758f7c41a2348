raise E(' - '.join([f'{x}!', '%s' % y]))
