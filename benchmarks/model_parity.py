"""Small real architectures compiled on a C++-scheduled out-of-tree device, against eager.

    PYTHONSAFEPATH=1 .venv/bin/python benchmarks/model_parity.py [--models gpt2,llama,bert,t5]

Needs ``transformers`` (``.venv/bin/pip install transformers``; not a test
dependency). Builds each model from a small config of that library with
random weights (no download): GPT-2 and Llama with grouped-query attention
(decoders), BERT (encoder), T5 (encoder-decoder). On the tests' fake
PrivateUse1 device (``test/inductor/extension_backends``, kernels from
Inductor's C++ backend), each runs

* inference: ``torch.compile(model)`` on a batch, logits against eager's;
* a training step: the loss and its backward compiled, then an AdamW step;
  loss and every parameter after the step against eager's;

with ``cpp_wrapper`` False and True, and with the C++ wrapper once more with
the device's ``DeviceOpOverrides.c_shim_device()`` returning None (a device
that ships no C shim: its matrix products go through the dispatcher). It
prints one line per run, the largest absolute difference and whether it is
within ``--atol``/``--rtol``, and exits 1 if any run is not. AdamW's first
step divides each gradient by its own magnitude, so float noise in a gradient
near zero moves a parameter by up to the learning rate: ``--device cpu``
gives cpu's compiled-against-eager figures to read the device's against.
"""

from __future__ import annotations

import argparse
import copy
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEVICE = "extension_device"


def _configs():
    import transformers as tr

    small = {"vocab_size": 128}
    return {
        "gpt2": lambda: tr.GPT2LMHeadModel(tr.GPT2Config(
            n_embd=64, n_layer=2, n_head=4, n_positions=64, resid_pdrop=0.0,
            embd_pdrop=0.0, attn_pdrop=0.0, **small)),
        "llama": lambda: tr.LlamaForCausalLM(tr.LlamaConfig(
            hidden_size=64, intermediate_size=128, num_hidden_layers=2,
            num_attention_heads=4, num_key_value_heads=2,
            max_position_embeddings=64, **small)),
        "bert": lambda: tr.BertForMaskedLM(tr.BertConfig(
            hidden_size=64, intermediate_size=128, num_hidden_layers=2,
            num_attention_heads=4, max_position_embeddings=64,
            hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0, **small)),
        "t5": lambda: tr.T5ForConditionalGeneration(tr.T5Config(
            d_model=64, d_kv=16, d_ff=128, num_layers=2, num_heads=4,
            dropout_rate=0.0, decoder_start_token_id=0, **small)),
    }


def _batch(name: str, device: str):
    import torch

    g = torch.Generator().manual_seed(1)
    ids = torch.randint(0, 128, (2, 16), generator=g)
    kwargs = {"input_ids": ids, "labels": ids.clone()}
    if name == "t5":
        kwargs["labels"] = torch.randint(0, 128, (2, 8), generator=g)
    return {k: v.to(device) for k, v in kwargs.items()}


def _infer(model, batch, compiled: bool):
    import torch

    fn = torch.compile(model) if compiled else model
    with torch.no_grad():
        return [fn(**batch).logits]


def _train(model, batch, compiled: bool):
    import torch

    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

    def loss_and_backward(**kwargs):
        loss = model(**kwargs).loss
        loss.backward()
        return loss

    fn = torch.compile(loss_and_backward) if compiled else loss_and_backward
    loss = fn(**batch)
    opt.step()
    return [loss.detach(), *(p.detach() for p in model.parameters())]


def _max_diff(actual, expected, atol: float, rtol: float) -> tuple[float, bool]:
    import torch

    worst, ok = 0.0, True
    for a, e in zip(actual, expected, strict=True):
        a, e = a.cpu().float(), e.cpu().float()
        worst = max(worst, (a - e).abs().max().item())
        ok = ok and torch.allclose(a, e, atol=atol, rtol=rtol)
    return worst, ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="gpt2,llama,bert,t5")
    parser.add_argument("--atol", type=float, default=1e-3)
    parser.add_argument("--rtol", type=float, default=1e-4)
    parser.add_argument("--device", default=DEVICE,
                        help="cpu gives the reference: compiled against eager on cpu")
    args = parser.parse_args()

    import torch
    from torch._inductor import config
    from torch._inductor.codegen.common import register_device_op_overrides

    sys.path.insert(0, str(REPO_ROOT / "test" / "inductor"))
    from extension_backends.cpp.extension_codegen_backend import (
        ExtensionDeviceOpOverrides,
        register_compile_backend,
    )
    from extension_backends.extension_device import register

    register(DEVICE)
    register_compile_backend(DEVICE)

    class NoCShim(ExtensionDeviceOpOverrides):
        def c_shim_device(self, device, op):
            return None

    runs = [("python", False, False), ("cpp", True, False), ("cpp, no C shim", True, True)]
    if args.device == "cpu":
        runs = runs[:2]
    configs, failed = _configs(), 0
    for name in args.models.split(","):
        torch.manual_seed(0)
        base = configs[name]().to(args.device)
        batch = _batch(name, args.device)
        for kind, run in (("inference", _infer), ("training", _train)):
            (base.eval if kind == "inference" else base.train)()
            expected = run(copy.deepcopy(base), batch, compiled=False)
            for label, cpp_wrapper, no_shim in runs:
                torch._dynamo.reset()
                if args.device == DEVICE:
                    overrides = NoCShim if no_shim else ExtensionDeviceOpOverrides
                    register_device_op_overrides(DEVICE, overrides(DEVICE))
                with config.patch(cpp_wrapper=cpp_wrapper):
                    actual = run(copy.deepcopy(base), batch, compiled=True)
                worst, ok = _max_diff(actual, expected, args.atol, args.rtol)
                failed += not ok
                print(f"{args.device} {name:6} {kind:9} {label:15} max |diff| {worst:.2e} "
                      f"{'ok' if ok else 'MISMATCH'}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
