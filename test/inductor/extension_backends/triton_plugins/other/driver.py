from .. import _common


class OtherDriver(_common.PluginDriver):
    target_name = "other"
