using Harness.Agreements;
using Harness.Workloads;
using Microsoft.Extensions.Options;

namespace Harness.ServiceOperations;

// Each failure names the environment variable to change, since that is how containers configure the services.

internal sealed class WorkloadLimitsValidator : IValidateOptions<WorkloadLimits>
{
    public ValidateOptionsResult Validate(string? name, WorkloadLimits options)
    {
        var failures = new List<string>();
        if (options.MaxIterations < 1)
        {
            failures.Add($"Workloads__MaxIterations must be 1 or more; got {options.MaxIterations}.");
        }

        if (options.MaxFanout is < 1 or > 10_000)
        {
            failures.Add($"Workloads__MaxFanout must be between 1 and 10000; got {options.MaxFanout}.");
        }

        if (options.MaxDelayMs is < 0 or > 3_600_000)
        {
            failures.Add($"Workloads__MaxDelayMs must be between 0 and 3600000; got {options.MaxDelayMs}.");
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}

internal sealed class ThirdPartyOptionsValidator : IValidateOptions<ThirdPartyOptions>
{
    public ValidateOptionsResult Validate(string? name, ThirdPartyOptions options)
    {
        if (!options.BaseAddress.IsAbsoluteUri || options.BaseAddress.Scheme is not ("http" or "https"))
        {
            return ValidateOptionsResult.Fail($"ThirdParty__BaseAddress must be an absolute http(s) URI; got '{options.BaseAddress}'.");
        }

        return options.Timeout > TimeSpan.Zero
            ? ValidateOptionsResult.Success
            : ValidateOptionsResult.Fail($"ThirdParty__Timeout must be positive; got {options.Timeout}.");
    }
}

internal sealed class ComputeWorkOptionsValidator : IValidateOptions<ComputeWorkOptions>
{
    public ValidateOptionsResult Validate(string? name, ComputeWorkOptions options)
    {
        // The negated form also refuses NaN, which every comparison answers false to.
        return options.Factor is >= ComputeWorkOptions.MinFactor and <= ComputeWorkOptions.MaxFactor
            ? ValidateOptionsResult.Success
            : ValidateOptionsResult.Fail(FormattableString.Invariant(
                $"ComputeWork__Factor must be between 1.0 and 10.0 (a benchmarking aid: the Compute work per requested iteration); got {options.Factor}."));
    }
}
