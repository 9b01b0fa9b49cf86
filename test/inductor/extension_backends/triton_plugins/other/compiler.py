from .. import _common


class OtherBackend(_common.PluginBackend):
    target_name = "other"
