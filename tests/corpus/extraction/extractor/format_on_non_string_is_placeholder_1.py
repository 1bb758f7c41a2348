raise E(fmt.format(a))
