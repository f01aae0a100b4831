using Harness.GrpcService;
using Harness.ServiceDefaults;

return await HarnessHost.RunAsync("grpc", GrpcApp.Build, args);
