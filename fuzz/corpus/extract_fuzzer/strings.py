raise ValueError(b"bytes \x00\xff")
raise ValueError(r"raw \d+ {not a field}")
raise ValueError(rf"raw f {x} \n")
raise ValueError("""triple
quoted {0} message""".format(a))
raise ValueError("%s failed: %r (%d%%)" % (name, err, pct))
raise ValueError("caf\u00e9 \N{BULLET} \U0001F600 " + str(x))
raise KeyError({"a": 1}, "{", "}")
