"""Command-line build settings for umbra's optional parts (--config=cuda, --config=nompi)."""

def _bool_flag_impl(ctx):
    return []

bool_flag = rule(
    implementation = _bool_flag_impl,
    build_setting = config.bool(flag = True),
    doc = "A boolean command-line build setting (skylib's bool_flag, which Debian lacks).",
)
