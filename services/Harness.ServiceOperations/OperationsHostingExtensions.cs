using Harness.Agreements;
using Harness.Scheduling;
using Harness.ServiceDefaults;
using Harness.Workloads;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace Harness.ServiceOperations;

/// <summary>Registers the two operations a sample service exposes.</summary>
public static class OperationsHostingExtensions
{
    /// <summary>
    /// The validated <c>Workloads</c> limits, <c>ComputeWork</c> factor and <c>ThirdParty</c> client, the operation tracker (published on
    /// /metrics) and <see cref="HarnessOperations"/>. Needs <c>AddHarnessScheduling</c>: fan-outs run on the mode's scheduler.
    /// </summary>
    public static WebApplicationBuilder AddHarnessOperations(this WebApplicationBuilder builder)
    {
        builder.Services.AddSingleton<IValidateOptions<WorkloadLimits>, WorkloadLimitsValidator>();
        builder.Services.AddOptions<WorkloadLimits>().BindConfiguration(WorkloadLimits.SectionName).ValidateOnStart();
        builder.Services.AddSingleton<IValidateOptions<ThirdPartyOptions>, ThirdPartyOptionsValidator>();
        builder.Services.AddOptions<ThirdPartyOptions>().BindConfiguration(ThirdPartyOptions.SectionName).ValidateOnStart();
        builder.Services.AddSingleton<IValidateOptions<ComputeWorkOptions>, ComputeWorkOptionsValidator>();
        builder.Services.AddOptions<ComputeWorkOptions>().BindConfiguration(ComputeWorkOptions.SectionName).ValidateOnStart();

        builder.Services.AddSingleton(sp => sp.GetRequiredService<IOptions<WorkloadLimits>>().Value);
        builder.Services.AddSingleton(sp => sp.GetRequiredService<IOptions<ComputeWorkOptions>>().Value);
        builder.Services.AddSingleton(new OperationTracker(HarnessOperations.Names));
        builder.Services.AddSingleton<IMetricsSource, OperationMetrics>();
        builder.Services.AddSingleton<HarnessOperations>();
        builder.Services.AddSingleton(sp =>
        {
            var options = sp.GetRequiredService<IOptions<ThirdPartyOptions>>().Value;

            // One pooled client for every call: a connection per call in flight, never a cap below the fan-out.
            var handler = new SocketsHttpHandler
            {
                MaxConnectionsPerServer = int.MaxValue,
                PooledConnectionLifetime = TimeSpan.FromMinutes(2),
                ConnectTimeout = TimeSpan.FromSeconds(10),
            };
            var http = new HttpClient(handler) { BaseAddress = options.BaseAddress, Timeout = options.Timeout };
            return new ThirdPartyWorkload(
                http,
                sp.GetRequiredService<IWorkScheduler>(),
                sp.GetRequiredService<WorkloadLimits>());
        });
        return builder;
    }
}
