raise ValueError("ok")
raise ValueError("broken" +)
raise ValueError("ok too")
