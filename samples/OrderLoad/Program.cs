using Harness.LoadTests;
using OrderLoad;

// Two scenarios, two series per mode of one report: `dotnet run -- --target grpc=http://127.0.0.1:5090,mode=iocp`.
return await HarnessApp.RunAsync(args, OrderScenarios.PlaceOrder, OrderScenarios.PlaceBulkOrder);
