raise E("double")
