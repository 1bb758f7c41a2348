raise E('line one '
        'line two')
