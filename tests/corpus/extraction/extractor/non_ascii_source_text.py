raise E('café €')
