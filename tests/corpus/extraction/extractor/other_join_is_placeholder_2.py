raise E(sep.join(['a', 'b']))
