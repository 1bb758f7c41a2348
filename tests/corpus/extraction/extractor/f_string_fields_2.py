raise E(f'{len(visible_devices)} devices')
