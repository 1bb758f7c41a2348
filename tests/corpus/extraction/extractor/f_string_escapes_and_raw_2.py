raise E(rf'raw\d {x}')
