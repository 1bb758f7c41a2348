raise E(detail='d')
