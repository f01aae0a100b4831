using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using Serilog;

namespace Harness.ServiceDefaults;

/// <summary>The body every service's Program shares: a bootstrap logger, then run, then flush the logs.</summary>
public static class HarnessHost
{
    /// <returns>The process exit code: 0 after a clean shutdown, 1 after a start-up or run failure, 2 for bad configuration.</returns>
    public static async Task<int> RunAsync(string service, Func<string[], WebApplication> build, string[] args)
    {
        Log.Logger = HarnessLogging.CreateBootstrapLogger(service);
        try
        {
            await using var app = build(args);
            await app.RunAsync();
            return 0;
        }
        catch (OptionsValidationException ex)
        {
            // A configuration mistake: the messages name the variable to fix, and a stack trace would bury them.
            foreach (var failure in ex.Failures)
            {
                Log.Fatal("Invalid configuration: {Failure}", failure);
            }

            return 2;
        }
        catch (Exception ex) when (ex is not HostAbortedException)
        {
            Log.Fatal(ex, "{Service} stopped: {Reason}", service, ex.Message);
            return 1;
        }
        finally
        {
            await Log.CloseAndFlushAsync();
        }
    }
}
