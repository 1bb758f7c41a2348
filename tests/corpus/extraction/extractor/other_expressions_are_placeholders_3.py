raise E(msgs[0])
