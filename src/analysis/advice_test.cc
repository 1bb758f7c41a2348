#include "analysis/advice.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace errdex {
namespace {

using Strings = std::vector<std::string>;

TEST(AdviceTest, SplitsSentencesButNotInsideCodeQuotesPlaceholdersOrAbbreviations) {
  EXPECT_EQ(SplitSentences("Device should be CUDA, got {device} instead. Please move the model."),
            (Strings{"Device should be CUDA, got {device} instead.", "Please move the model."}));
  EXPECT_EQ(SplitSentences("Use e.g. `torch.float32` or i.e. the default. Done."),
            (Strings{"Use e.g. `torch.float32` or i.e. the default.", "Done."}));
  EXPECT_EQ(SplitSentences("Needs version 1.2 or later in setup.py! Upgrade it."),
            (Strings{"Needs version 1.2 or later in setup.py!", "Upgrade it."}));
  EXPECT_EQ(SplitSentences("Got `a. B` and 'x. Y' and \"p. Q\" and {f(a. B)} here. Next one?"),
            (Strings{"Got `a. B` and 'x. Y' and \"p. Q\" and {f(a. B)} here.", "Next one?"}));
  EXPECT_EQ(SplitSentences("Bad value... Try again.\nSecond line\n- Use a list"),
            (Strings{"Bad value...", "Try again.", "Second line", "Use a list"}));
  EXPECT_EQ(SplitSentences("It isn't here. Don't retry."), (Strings{"It isn't here.", "Don't retry."}));
  EXPECT_EQ(SplitSentences("Call f(). then g."), (Strings{"Call f(). then g."}));  // lowercase: not a new sentence
  EXPECT_EQ(SplitSentences("  "), Strings{});
}

TEST(AdviceTest, RequirementsAreNotAdvice) {
  // The rule of advice.h: a sentence that only states what the input should be is a requirement.
  const auto device = ClassifySentences("Device should be CUDA, got {device} instead.");
  ASSERT_EQ(device.size(), 1u);
  EXPECT_EQ(device[0].kind, SentenceKind::kRequirement);
  EXPECT_TRUE(AdviceInMessage("Device should be CUDA, got {device} instead.").empty());
  EXPECT_TRUE(AdviceInMessage("`x` must be positive").empty());
  EXPECT_TRUE(AdviceInMessage("Expected a tensor, got {type(x)}").empty());
  EXPECT_EQ(ClassifySentences("The `rich` package is required")[0].kind, SentenceKind::kRequirement);
  EXPECT_EQ(ClassifySentences("Something went wrong")[0].kind, SentenceKind::kOther);
  // Addressed to the reader, it is advice.
  EXPECT_EQ(AdviceInMessage("You must pass a CUDA device."), Strings{"You must pass a CUDA device."});
}

struct Case {
  const char* template_text;
  Strings advice;
};

// Real templates from the Python 3.11 standard library and Lightning (src/, HEAD of the mirror),
// with the advice a reader would take from each, judged by hand.
TEST(AdviceTest, RealTemplates) {
  const std::vector<Case> cases = {
      // Lightning.
      {"Device should be CUDA, got {device} instead.", {}},
      {"SpikeDetection requires `torchmetrics>=1.0.0` Please upgrade your version.",
       {"SpikeDetection requires `torchmetrics>=1.0.0` Please upgrade your version."}},
      {"Training with multiple optimizers is only supported with manual optimization. Set "
       "`self.automatic_optimization = False`, then access your optimizers in `training_step` with `opt1, opt2, ... = "
       "self.optimizers()`.",
       {"Set `self.automatic_optimization = False`, then access your optimizers in `training_step` with `opt1, opt2, "
        "... = self.optimizers()`."}},
      {"`{dataloader_cls_name}` within local rank has zero length. Please make sure that it returns at least 1 batch.",
       {"Please make sure that it returns at least 1 batch."}},
      {"Automatic gradient accumulation is not supported for manual optimization. Remove "
       "`Trainer(accumulate_grad_batches={trainer.accumulate_grad_batches})` or switch to automatic optimization.",
       {"Remove `Trainer(accumulate_grad_batches={trainer.accumulate_grad_batches})` or switch to automatic "
        "optimization."}},
      {"The selected device indices {selected_device_indices!r} don't match the local rank values of processes. If "
       "you need to select GPUs at a specific index, set the `CUDA_VISIBLE_DEVICES` environment variable instead.",
       {"If you need to select GPUs at a specific index, set the `CUDA_VISIBLE_DEVICES` environment variable "
        "instead."}},
      {"Lightning can't create new processes if CUDA is already initialized. Did you manually call `torch.cuda.*` "
       "functions, have moved the model to the device, or allocated memory on the GPU any other way? Please remove any "
       "such calls, or change the selected strategy. You will have to restart the Python kernel.",
       {"Did you manually call `torch.cuda.*` functions, have moved the model to the device, or allocated memory on "
        "the GPU any other way?",
        "Please remove any such calls, or change the selected strategy.",
        "You will have to restart the Python kernel."}},
      {"To build full docs you need to include also tutorials/notebooks from submodule code. Please run: `git "
       "submodule update --init --recursive`",
       {"To build full docs you need to include also tutorials/notebooks from submodule code.",
        "Please run: `git submodule update --init --recursive`"}},
      {"Early stopping conditioned on metric `{self.monitor}` which is not available. Pass in or modify your "
       "`EarlyStopping` callback to use any of the following: `{'`, `'.join(list(logs.keys()))}`",
       {"Pass in or modify your `EarlyStopping` callback to use any of the following: `{'`, "
        "`'.join(list(logs.keys()))}`"}},
      {"Unrecognized activation function: `act_fun` must be either `relu` or `tanh`", {}},
      {"No checkpoints found in folder \"{PATH_LEGACY}\"", {}},
      {"Mismatch in {layer_name}: checkpoint saved after optimization instead of before", {}},
      {"You have configured {len(self.optimizers)} optimizers but the checkpoint contains {len(optimizer_states)} "
       "optimizers to load.",
       {}},
      {"When using the learning rate finder, either `model` or `model.hparams` should have one of these fields: "
       "{attr_options}.",
       {}},
      {"The attribute name for the learning rate was set to {attr_name}, but could not find this as a field in "
       "`model` or `model.hparams`.",
       {}},
      {"Do not set `gradient_accumulation_steps` in the DeepSpeed config as this will be set with the "
       "`accumulate_grad_batches` argument passed via the Lightning Trainer.",
       {"Do not set `gradient_accumulation_steps` in the DeepSpeed config as this will be set with the "
        "`accumulate_grad_batches` argument passed via the Lightning Trainer."}},
      {"Install it by running `pip install -U rich`.", {"Install it by running `pip install -U rich`."}},
      {"HINT: Set `devices={ntasks_per_node}`.", {"HINT: Set `devices={ntasks_per_node}`."}},
      // Standard library.
      {"Use re.compile() instead.", {"Use re.compile() instead."}},
      {"The 'warn' function is deprecated, use 'warning' instead",
       {"The 'warn' function is deprecated, use 'warning' instead"}},
      {"Maybe you meant to derive from TestCase?", {"Maybe you meant to derive from TestCase?"}},
      {"Try using '{mod_name[:-3]}' instead of '{mod_name}' as the module name.",
       {"Try using '{mod_name[:-3]}' instead of '{mod_name}' as the module name."}},
      {"Don't know how to compile {src_name}", {}},
      {"couldn't move '{src}' to '{dst}' by copy/delete: delete '{src}' failed: {msg}", {}},
      {"Either list of fields or keywords can be provided to NamedTuple, not both", {}},
      {"You should not be seeing this.", {}},
      {"File {path} does not exist", {}},
      {"Use of StringIO input is deprecated, use BytesIO instead",
       {"Use of StringIO input is deprecated, use BytesIO instead"}},
      {"Check failed: {reason}", {}},
      {"expected a list, set or tuple", {}},
      {"See https://bugs.python.org/issue36816.", {"See https://bugs.python.org/issue36816."}},
      {"invalid literal for int() with base {base}: {text!r}", {}},
      {"You must set server_hostname when using ssl without a host",
       {"You must set server_hostname when using ssl without a host"}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(AdviceInMessage(c.template_text), c.advice) << c.template_text;
  }
}

}  // namespace
}  // namespace errdex
