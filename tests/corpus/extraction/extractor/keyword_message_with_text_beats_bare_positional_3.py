raise E("text", message="other")
