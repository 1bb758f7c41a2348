raise E(detail='d', msg='m')
