raise E()
