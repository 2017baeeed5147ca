// Shippo's `track_updated` webhook body, as Shippo's docs show it (docs.goshippo.com, "Webhooks":
// the track_updated example), with the tracking number and status of the test's label.
export function shippoTrackUpdated(
  trackingNumber: string,
  status: "PRE_TRANSIT" | "TRANSIT" | "DELIVERED" | "RETURNED" | "FAILURE" | "UNKNOWN",
) {
  const at = "2026-11-28T13:03:00Z";
  return {
    event: "track_updated",
    test: true,
    data: {
      messages: [],
      carrier: "usps",
      tracking_number: trackingNumber,
      address_from: { city: "Las Vegas", state: "NV", zip: "89101", country: "US" },
      address_to: { city: "Spotsylvania", state: "VA", zip: "22551", country: "US" },
      eta: "2026-11-30T12:00:00Z",
      original_eta: "2026-11-30T12:00:00Z",
      servicelevel: { token: "usps_priority", name: "Priority Mail" },
      metadata: "Shippo test webhook",
      tracking_status: {
        object_created: at,
        object_updated: at,
        object_id: "ce48ff3d52a34e91b77aa98370182624",
        status,
        status_details: "Your shipment has been accepted.",
        status_date: at,
        substatus: null,
        location: { city: "Las Vegas", state: "NV", zip: "89101", country: "US" },
      },
      tracking_history: [
        {
          object_created: at,
          object_id: "0d2cf3a4e0bf4b9b8f3c0a8d6bbf2a1c",
          status: "PRE_TRANSIT",
          status_details: "Shipping label created.",
          status_date: at,
          location: null,
        },
      ],
      transaction: "b3f3e0ab2e8e4e4a8a4d2c6f1ab5c0d3",
    },
  };
}
