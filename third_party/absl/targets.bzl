"""The Abseil targets umbra exposes: upstream label -> Debian's pkg-config module.

To expose another Abseil library, add its upstream label here; the module name is the
`absl_*.pc` file under /usr/lib/x86_64-linux-gnu/pkgconfig.
"""

ABSL_TARGETS = {
    "absl/algorithm:container": "absl_algorithm_container",
    "absl/base:core_headers": "absl_core_headers",
    "absl/base:base": "absl_base",
    "absl/cleanup:cleanup": "absl_cleanup",
    "absl/container:btree": "absl_btree",
    "absl/container:fixed_array": "absl_fixed_array",
    "absl/container:flat_hash_map": "absl_flat_hash_map",
    "absl/container:flat_hash_set": "absl_flat_hash_set",
    "absl/container:inlined_vector": "absl_inlined_vector",
    "absl/container:node_hash_map": "absl_node_hash_map",
    "absl/debugging:failure_signal_handler": "absl_failure_signal_handler",
    "absl/debugging:stacktrace": "absl_stacktrace",
    "absl/debugging:symbolize": "absl_symbolize",
    "absl/flags:flag": "absl_flags",
    "absl/flags:parse": "absl_flags_parse",
    "absl/flags:usage": "absl_flags_usage",
    "absl/functional:function_ref": "absl_function_ref",
    "absl/hash:hash": "absl_hash",
    "absl/memory:memory": "absl_memory",
    "absl/numeric:bits": "absl_bits",
    "absl/numeric:int128": "absl_int128",
    "absl/random:random": "absl_random_random",
    "absl/random:distributions": "absl_random_distributions",
    "absl/status:status": "absl_status",
    "absl/status:statusor": "absl_statusor",
    "absl/strings:strings": "absl_strings",
    "absl/strings:str_format": "absl_str_format",
    "absl/strings:cord": "absl_cord",
    "absl/synchronization:synchronization": "absl_synchronization",
    "absl/time:time": "absl_time",
    "absl/types:optional": "absl_optional",
    "absl/types:span": "absl_span",
    "absl/types:variant": "absl_variant",
    "absl/utility:utility": "absl_utility",
}
