raise E(fmt % args)
