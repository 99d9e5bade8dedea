import { serviceStatus } from "../../../src/core/http/service-status-header";

test.each<[string | null, number | null]>([
  ["503", 503],
  ["429", 429],
  [null, null],
  ["", null],
  ["50", null],
  ["5030", null],
  [" 503", null],
  ["600", null],
  ["abc", null],
])("pcd-service-status %p reads as %p", (value, status) => {
  expect(serviceStatus(value)).toBe(status);
});
