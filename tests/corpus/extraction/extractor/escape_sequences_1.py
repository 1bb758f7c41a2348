raise E('tab\there\nnewline')
