using Harness.GrpcService;
using Harness.ServiceDefaults;
using Serilog;

Log.Logger = HarnessLogging.CreateBootstrapLogger("grpc");
try
{
    await GrpcApp.Build(args).RunAsync();
    return 0;
}
catch (Exception ex) when (ex is not HostAbortedException)
{
    Log.Fatal(ex, "The gRPC service stopped: {Reason}", ex.Message);
    return 1;
}
finally
{
    await Log.CloseAndFlushAsync();
}
