raise E(obj.message)
