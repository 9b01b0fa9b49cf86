from .. import _common


class ExtensionDeviceBackend(_common.PluginBackend):
    target_name = "extension_device"
