"""Self-play PPO on ginlab's RLlib environment (``ginlab.rllib``): every
seat plays the same masked policy, trained by RLlib on a Ray cluster.

Every agent maps to one policy ("shared"), whose module is RLlib's own
action-masking PPO module (``ActionMaskingTorchRLModule``: it reads the
``{"observations", "action_mask"}`` layout the env gives and puts -inf on
illegal actions). ``--env-runners N`` samples on N Ray actors (0: in the
driver), so the same script scales from a laptop to a cluster
(``ray.init(address="auto")`` with ``--address auto``). It prints each
iteration's sampled steps, finished episodes (a game, or with
``--episode hand`` a hand), loss and time. Needs torch and RLlib (not
ginlab's dependencies; run by hand, not in CI):

    pip install "./python[rllib]" torch
    python examples/python/rllib_selfplay.py [--players 3] [--iters 2]
"""

import argparse
import time

import ray
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

from ginlab.rllib import GinMultiAgentEnv


def config(args):
    return (
        PPOConfig()
        .environment(
            GinMultiAgentEnv,
            env_config={
                "players": args.players,
                "rules": args.rules,
                "episode": args.episode,
                "seed": 1,
            },
        )
        .env_runners(num_env_runners=args.env_runners, rollout_fragment_length="auto")
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent, episode, **kw: "shared")
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    "shared": RLModuleSpec(
                        module_class=ActionMaskingTorchRLModule,
                        model_config={"head_fcnet_hiddens": [64, 64]},
                    )
                }
            )
        )
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=min(args.batch, 128),
            num_epochs=1,
        )
        .debugging(seed=1)
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2, choices=[2, 3, 4])
    parser.add_argument("--rules", default="standard")
    parser.add_argument(
        "--episode", default="game", choices=["game", "hand"], help="hand: two players only"
    )
    parser.add_argument("--iters", type=int, default=2)
    parser.add_argument("--batch", type=int, default=1000, help="env steps per iteration")
    parser.add_argument("--env-runners", type=int, default=0)
    parser.add_argument("--address", default=None, help="a Ray cluster (default: a local one)")
    args = parser.parse_args()
    if args.address:
        ray.init(address=args.address)
    else:
        ray.init(num_cpus=2, include_dashboard=False)
    algo = config(args).build_algo()
    for i in range(1, args.iters + 1):
        start = time.perf_counter()
        result = algo.train()
        runners = result["env_runners"]
        loss = result.get("learners", {}).get("shared", {}).get("total_loss", float("nan"))
        print(
            f"iteration {i}: {int(runners['num_env_steps_sampled_lifetime'])} env steps, "
            f"{int(runners.get('num_episodes_lifetime', 0))} episodes finished, "
            f"loss {float(loss):.3f}, {time.perf_counter() - start:.1f} s"
        )
    algo.stop()
    ray.shutdown()


if __name__ == "__main__":
    main()
