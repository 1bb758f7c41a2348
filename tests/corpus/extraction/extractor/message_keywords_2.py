raise E(msg='m')
