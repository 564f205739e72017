#include "tools/cxxnet_guide.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "train/config/cxxnet_notices.h"

namespace umbra {
namespace tools {
namespace {

constexpr char kIntroduction[] = R"(## Coming from cxxnet

umbra reads cxxnet's config format, and its keys as cxxnet's source reads
them (dmlc/cxxnet at 9c58c278d129, the repository's last commit; where that
commit broke a feature, its parent b1d2a44). A cxxnet config runs with its
data paths changed when it uses the keys of the first two lists below; a key
of the third list is refused by name, with what to write instead where umbra
has it. A key that no cxxnet version read is refused as a typo (cxxnet
ignored every unknown key and stopped reading a file at its first malformed
line, silently).

### Read as cxxnet reads them

- Blocks and structure: `data = train`, `eval = NAME`, `pred = FILE`,
  `iter = TYPE` ... `iter = end`, `netconfig = start/end`,
  `layer[a,b->c] = type:name`, `layer[+1]` (and `layer[+N]`, read as
  `layer[+1]` as cxxnet did), `layer[+0]`, node `0` as `in`,
  `share[NAME]` (a name after it names the layer; cxxnet ignored it),
  `label_vec[a,b) = NAME`, `extra_data_num`, `extra_data_shape[i]`,
  `metric[FIELD,NODE]`, an unquoted value `default`.
- Trainer: `task` (`train`, `finetune`, `pred`, `extract`, `pred_raw` =
  `pred` with `output_prob = 1`, and `get_weight` with `extract_layer_name`
  and `weight_filename`: a layer's wmat, one row per line, its dimensions
  in `FILE.meta`), `output_format = txt | bin` for extract and get_weight,
  `extract_node_name` by name or `top[-N]` (with `FILE.meta` holding
  `rows,channel,height,width`), `model_in`, `model_dir`, `num_round`,
  `max_round` (the rounds of this run, counted from where it starts: a
  resumed run from its checkpoint), `start_counter` (a fresh run starts
  after that many rounds: its rounds and checkpoints are numbered from
  start_counter + 1; a resumed or finetuned run starts where it must, with
  a note), `continue`, `save_model`, `batch_size`,
  `input_shape`, `eval_train` (default 1, as cxxnet's code), `metric`
  (`error`, `logloss`, `rmse`, `rec@N`), `dev` (`cpu`, `gpu`, `gpu:N`),
  `print_step` (a progress line every N batches), `update_period`
  (gradient accumulation; also under a loss layer), `test_io` (read the
  data only, with its speed; nothing is saved), `silent`, `seed` (the weights and layers' random numbers) and `seed_data`
  (the data order and augmentation).
- Updaters: `updater = sgd | nag | adam`, `eta`/`lr`, `wd`, `momentum`,
  `clip_gradient`, weight tags `wmat:` and `bias:` on any updater or init
  key; `eta`, `wd` and `momentum` also inside a layer, for its weights
  (`wmat:momentum`, `bias:momentum` for one of them);
  `momentum_schedule = 1` with `base_momentum`, `final_momentum` and
  `saturation_epoch` (every weight's momentum ramps linearly from base to
  final over saturation_epoch updates, as cxxnet meant it: its code added
  the ramp to the momentum at every update, capped at final_momentum, which
  it so reached at once); `lr:` or its cxxnet alias `eta:` before the
  schedule keys,
  `lr:schedule` (`constant`, `expdecay`: continuous,
  `base * gamma ^ (t / step)` as cxxnet since 2015-01; `polydecay`,
  `factor`), `lr:gamma`, `lr:alpha`, `lr:step`, `lr:factor`,
  `lr:minimum_lr`, `lr:start_epoch`, adam's `beta1` and `beta2` (cxxnet's
  1 - beta, defaults 0.1 and 0.001: `beta1 = 0.9` gets a warning that says
  so), `epsilon`.
- Per-weight updaters, as cxxnet made one per weight: every updater key
  but `eta` and `wd` (the schedule's `lr:*`, `momentum_schedule` and its
  keys, `beta1`, `epsilon`, `clip_gradient`, ...) written inside a layer is
  that layer's weights' own, after a weight tag (`bias:lr:factor`,
  `wmat:beta1`) one weight's; written globally after a weight tag
  (`bias:lr:step`) it is every weight's of that tag. A weight reads the
  global keys, then its tag's global ones, then its layer's, then its
  layer's of its tag, as cxxnet's updaters did. A key the chosen updater
  does not read (`momentum` with adam, `beta1` with sgd) has no effect, as
  in cxxnet, and gets a notice.
- Initialisation: `random_type = gaussian` (`init_sigma`), `uniform` and
  `xavier` (one type in cxxnet: U(-a, a), a = `init_uniform`, else
  sqrt(3 / (in + out)) with a convolution's in = input channels per group x
  kernel taps and out = `nchannel / ngroup`), `kaiming` (N(0, 2 / out) with
  out = `nhidden`, or `nchannel` x kernel taps), `init_bias`.
- Layers: `fullc`, `conv` (`nchannel`, `kernel_size`, `kernel_height`,
  `kernel_width`, `stride`, `pad`, `pad_y`, `pad_x`, `ngroup`, `no_bias`,
  `temp_col_max`), `bias`, `max_pooling`, `sum_pooling`, `avg_pooling`,
  `relu`, `sigmoid`, `tanh`, `softplus`, `xelu`, `rrelu` and its cxxnet
  name `insanity` (`lb`, `ub`; `calm_start`/`calm_end` of 0 or more have no
  effect, as in cxxnet, and get a notice), `prelu`
  (`init_slope`, `random_slope`, `random`: while training each element's
  slope is a[c] * U(1 - random, 1 + random) clipped to [0, 1]; its gradient
  includes the noise, which cxxnet's left out; cxxnet also clipped the
  slopes to [0, 1] at test time, umbra does not), `dropout`, `lrn`, `batch_norm`,
  `flatten`, `split`, `concat`, `ch_concat`, `softmax`, `multi_logistic`,
  `lp_loss`, `l2_loss` (`grad_scale`, `target`); `relu_max_pooling` (a
  relu into a node of its own, then the max pooling: cxxnet rectified the
  input node in place, which other readers of that node then saw too) and
  `batch_norm_no_ma` (`batch_norm` with `use_batch_stats = 1`: test time
  normalises with the batch's statistics), `insanity_max_pooling`
  (`keep`: while training each input element moves one pixel at random
  with probability 1 - keep before the max pooling; each window's gradient
  goes to its first maximum, once, though the displacement may have copied
  it), `fixconn` (`nhidden`,
  `fixconn_weight`: fixed weights from cxxnet's sparse text file, read
  whenever the net is built, never trained or saved).
- Iterators: `mnist` (`path_img`, `path_label`, `input_flat`, `shuffle`,
  `index_offset`), `csv` (`filename`, `has_header`, `label_width`), `img`
  (`image_list`, `image_root`), `imgrec` (`image_rec`; `image_list`, whose
  labels replace the records' by record id; `image_bin`, which cxxnet's
  imgrec ignored before it stopped for want of image_rec, is read as
  `image_rec`), `imgbin` and `imginst` (cxxnet's 64 MiB image pages: one or
  more `image_list` + `image_bin` pairs, or `image_conf_prefix` and
  `image_conf_ids`; `image_root` under imgrec, imgbin and imginst has no
  effect, with a notice, as in cxxnet), `threadbuffer` (`buffer_size`), `membuffer` (`max_nbatch`: the first
  batches of the stage before, read once and given on every pass),
  `attachtxt` (`filename`: one more extra input per instance from a text
  file; an instance it does not list is an error, cxxnet kept a stale row,
  and its extra input follows the source's instead of replacing them; a key
  a later stage declares itself, like attachtxt's filename, is not passed
  down to the source, as cxxnet passed every key), `image_mean` on the
  image iterators (a mean image file: cxxnet's own file is read; a missing
  one is made, with its folder), `test_skipread` (the first batch of each
  pass is read and given again for the others), and the augmentation keys `input_shape`, `rand_crop`,
  `rand_mirror`, `mirror` (every instance mirrored), `crop_y_start`,
  `crop_x_start`, `divideby`, `scale`, `mean_value`, `max_rotate_angle`,
  `max_shear_ratio`, `max_aspect_ratio`, `min_crop_size`, `max_crop_size`,
  `min_img_size`, `max_img_size`, `max_random_contrast`,
  `max_random_illumination`, `rotate`, `rotate_list`, `fill_value`,
  `round_batch`, `label_width`.

- Forms of cxxnet's 2014 examples (its history): `iter = image` (read as
  `img`), the cifar iterator's `path`, `batch1` ... `batch5` and `test`
  (read as `path_data` with the files they named, pixels divided by 256 as
  then), `random_type = 0` and `1` (gaussian and xavier),
  `pairtest-MASTER-SLAVE` layers (trained as MASTER; `master:` settings
  are MASTER's, `slave:` settings and the Caffe adaptor's `proto`, `mode`
  and `dev` have no effect), each with a notice.

### Accepted without effect

The trainer and `//tools:check` print one notice per line that sets one of
these, naming it and saying why it changes nothing:

)";

constexpr char kNotYet[] = R"(
### Not supported yet (refused by name)

- Several devices in one process (`dev = gpu:0-3`, `dev = gpu:0,1`; a
  later `dev = cpu`, on the command line say, replaces it) and cxxnet's
  parameter server (`param_server`, `update_on_server`, `dist_num_worker`,
  `dist_worker_rank`, and the keys of its launcher's mpi.conf:
  `num_servers`, `num_workers`, `bin`, `arg`, `network_interface`,
  `network_port`): the error says to train data parallel over processes
  instead,
  `mpirun -np 4 bazel-bin/train/train my.conf dist=mpi` (with `dev = gpu`
  each rank takes the GPU of its local rank).

### Differences kept on purpose

- Typos are refused, with the line, the key and the closest valid keys;
  cxxnet ignored unknown keys. A key written inside a data block wins over
  the same global key (cxxnet applied the globals after the block's keys).
  Likewise a global updater key after a weight tag wins over the untagged
  one for that tag's weights wherever either is written (cxxnet applied
  global keys in file order: `wmat:beta1 = 0.2` then `beta1 = 0.3` gave
  wmat 0.3 there, 0.2 here).
  Trainer keys (`batch_size`, `seed`, ...) are global only; cxxnet read
  them anywhere in the file.
- Checkpoints are umbra's own format (`model_dir/NNNN.model`, checked and
  written atomically) and hold the updater's state, so `continue = 1`
  resumes bit-identically; cxxnet's models held the weights only, named
  each by its round and wrote `0000.model` before training.
- Without a `metric` line umbra reports `error`; cxxnet reported nothing.
  `rmse` is the root of the mean squared error, as its name says; cxxnet
  printed the mean of the squared error summed over the outputs.
- `momentum` is not capped at `final_momentum` (cxxnet capped every
  momentum at 0.9 unless `final_momentum` was raised). A mean image is
  made from the centre crops without augmentation (cxxnet's averaged one
  pass of random crops and rotations, different on every run). imgbin
  shuffles pictures over all parts (cxxnet shuffled the parts, then the
  pictures within each page). `lr:minimum_lr` floors
  decayed rates but never lifts a rate above its base (cxxnet trained
  `eta = 0` at 1e-5). `clip_gradient` clips for every updater (cxxnet: sgd
  only).
- adam decays weights towards zero (cxxnet's subtracted `wd * w` from the
  gradient, the wrong sign), follows `lr:schedule`, and adds epsilon to the
  root of the bias-corrected second moment.
- A round's last update with `update_period` holds that round's leftover
  batches (their mean), so that every checkpoint ends on a whole update;
  cxxnet carried them into the next round.
- `print_step` numbers rounds as the round lines do (from 1) and adds the
  images per second; cxxnet printed the round from 0. Round lines go to
  standard output.
- The data: `shuffle` draws a new order for every pass (cxxnet's mnist kept
  the order drawn at the start); a last partial batch is padded and its
  padding trains nothing (cxxnet's mnist dropped it; its other iterators
  trained on stale rows); `scale` and `divideby` both apply (in cxxnet the
  later of the two won); `mean_value` takes one value per channel or one for
  all; `mirror`, contrast and illumination apply with or without a mean;
  csv's `has_header = 1` skips the header on every pass (cxxnet read it
  back as data after the first).
- Layer defaults: `dropout`'s `threshold` is 0.5 (cxxnet: 0, no dropout);
  `lrn` has `local_size = 5, alpha = 0.001, beta = 0.75` (cxxnet left
  alpha and beta unset); `batch_norm` has `eps = 1e-5` and moving variance
  starting at 1 (cxxnet: 1e-10 and 0), and its slope and shift take the
  `wmat:` and `bias:` settings, as before cxxnet's last commit.
- `random_type = he` is umbra's own: N(0, 2 / in), He et al.'s fan-in form
  and PyTorch's default; the example configs use it.
- `task = extract` and `pred` read only the `pred` block, `eval` only the
  eval blocks (cxxnet opened the training data too), and no task overwrites
  an existing output file.
)";

}  // namespace

std::string ComingFromCxxnetMarkdown() {
  std::string out = kIntroduction;
  for (const train::InertCxxnetKey& inert : train::InertCxxnetKeyList()) {
    absl::StrAppend(&out, "- `", inert.key, "`",
                    inert.condition.empty() ? "" : " ", inert.condition, ": ",
                    inert.reason, ".\n");
  }
  absl::StrAppend(&out, kNotYet);
  return out;
}

}  // namespace tools
}  // namespace umbra
