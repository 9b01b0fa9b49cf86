from .. import _common


class ExtensionDeviceDriver(_common.PluginDriver):
    target_name = "extension_device"
