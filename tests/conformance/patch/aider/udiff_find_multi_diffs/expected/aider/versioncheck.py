def check_version(print_cmd):
    try:
        pass
    except Exception as err:
        print_cmd(f"Error checking pypi for new version: {err}")
        return False

    return True
