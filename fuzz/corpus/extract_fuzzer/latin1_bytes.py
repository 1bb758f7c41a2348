# -*- coding: latin-1 -*-
raise ValueError('café')
